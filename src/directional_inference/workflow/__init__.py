"""The run's plumbing, apart from what the phases compute: the phase list and its DVC stages (``phases``,
``dvc_pipeline``), the config's checks and reference (``config_checks``, ``config_reference``; the config tree itself
is ``directional_inference.config_tree``), the jobs' resource requests (``job_resources``), the rule scripts' logging
(``rulelog``), the benchmark summary (``benchmarks``) and the one door to Snakemake's internals (``snakemake_state``).
The user's tools built on it are ``directional_inference.tools``."""
