#!/usr/bin/env bash
# The GPU checks on a machine with a GPU (results: benchmarks/results/gpu_preflight.txt): the preflight with its smoke-scale
# trial, a GPU job with CUDA hidden (it must stop at once) and one with the GPU, and the tests of S&S, BoOQA scoring, number
# formats and the LLM scorer on the GPU. For a machine with torch and transformers but not this environment (no package
# index): wheels of duckdb, nltk and jsonschema for its Python in .whl/, the package read from src/. OUT: where the records go.
set -x
[ -d .whl ] && { python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1; }
OUT=${OUT:-.}
export PYTHONPATH=/tmp/site:$PWD/src:$PWD/tests HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 DI_PRECISION_CACHE=/tmp/prec PYTHONUNBUFFERED=1
nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo
python3 -c "import torch, transformers; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'transformers', transformers.__version__)"
python3 -m directional_inference.tools.doctor --device-check 2>&1 | tee $OUT/doctor.txt
printf 'training:\n  gpus: 1\n' > /tmp/gpu1.yaml
CUDA_VISIBLE_DEVICES= python3 -m directional_inference.tools.doctor --device-check --configfile /tmp/gpu1.yaml 2>&1 | tee $OUT/doctor-cuda-hidden.txt
{ time CUDA_VISIBLE_DEVICES= python3 -c "from directional_inference.compute import require_gpus; require_gpus(1)"; } 2>&1 | tail -6 | tee $OUT/fail-fast.txt
{ time python3 -c "
import logging, sys; logging.basicConfig(stream=sys.stdout, level=logging.INFO, format='%(message)s')
from directional_inference.compute import require_gpus, torch_device; require_gpus(1); print('chosen', torch_device())"; } 2>&1 | tee $OUT/gpu-job.txt
timeout 420 python3 -m pytest -q -p no:cacheprovider -rs tests/test_compute.py tests/test_sns.py tests/test_llm_scorer.py tests/test_booqa_scoring.py 2>&1 | tee $OUT/pytest.txt | tail -25
