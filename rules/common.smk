# What several phase files use (no rules here; a helper that one phase file uses lives in that file): the run's design
# (DESIGN: its models, searches, methods and tables, built from the config by the package), the wildcard constraints,
# job resources and the package names several phase files read. rules/setup.smk has checked the config and put the
# package on the path.
from directional_inference import layout
from directional_inference.compute import model_job_gpus, model_job_threads
from directional_inference.levyholt.entries import ALL_SUBSETS, SPLITS
from directional_inference.levyholt.experiments import TABLE3_TRAINED_ON, data_directory, language_subset, scored_models
from directional_inference.resources.inputs import datasets as downloadable_datasets
from directional_inference.sns import VARIANTS
from directional_inference.workflow import snakemake_state
from directional_inference.workflow.job_resources import Demand, corpus_job_resources, expected_input_mb, imported_input_mb
from directional_inference.workflow.phases import PHASES, phase
from directional_inference.workflow.run_design import RunDesign, alias_pattern

# What the config asks the run to compute: its models, searches, methods and tables (workflow/run_design.py)
DESIGN = RunDesign(config)


wildcard_constraints:
    dataset="|".join(downloadable_datasets()),
    model="|".join(DESIGN.pretrained_models + DESIGN.tiny_models) or "NO_MODEL",
    lm="|".join(sorted(config["models"])),
    lang="en|zh",
    shard=r"\d+",
    part=r"\d+",
    split="dev|test",
    method="|".join(DESIGN.booqa_method_names),
    graph_name="|".join(DESIGN.file_graphs) or "NO_GRAPH",
    variant="|".join(VARIANTS),
    subset="|".join(DESIGN.levyholt_sets + DESIGN.chinese_levyholt_sets),
    test="|".join(DESIGN.levyholt_sets),
    trial=r"\d+",
    trained_on="|".join(TABLE3_TRAINED_ON),


def levyholt_file(variant, subset, split):
    """The data file a variant reads for a subset and split."""
    return layout.levyholt_file(f"{data_directory(variant, subset)}/{split}.tsv")


def model_run(wildcards):
    """Directory of one (language model, variant, training subset) search."""
    return layout.search_directory(wildcards.lm, wildcards.variant, wildcards.subset)


def trial_files(run, trials):
    """Dev scores, dev evaluations, training records and weights of every trial of the search in directory ``run`` (the
    weights of the best trial only, once every trial has finished)."""
    return {
        "dev_scores": [f"{run}/trial-{k}/dev_scores.parquet" for k in trials],
        "evaluations": [f"{run}/trial-{k}/evaluations.csv" for k in trials],
        "records": [f"{run}/trial-{k}/training.json" for k in trials],
        "weights": [f"{run}/trial-{k}/model" for k in trials],
    }


def _lang(wildcards_or_lang):
    return wildcards_or_lang if isinstance(wildcards_or_lang, str) else wildcards_or_lang.lang


def relation_shards(wildcards_or_lang):
    """The relation shards of a language: one per extraction job, or one per imported relation file."""
    lang = _lang(wildcards_or_lang)
    return [layout.relation_shard(lang, k) for k in range(DESIGN.relation_shard_count(lang))]


def merged_relations(wildcards_or_lang):
    """Every relation of a language, in corpus order, each sentence once (written by merge_relations), which every corpus-wide
    step reads."""
    return layout.merged_relations(_lang(wildcards_or_lang))


def corpus_job(demand, share=None):
    """The resources of a corpus-wide job, mem_mb, disk_mb, slurm_extra and runtime (job_resources.corpus_job_resources)
    of its Demand, estimated from the config before its input exists; ``share(wildcards)`` is the part of its input
    files the job reads (an extraction shard its block of the corpus table, a graph part its type pairs)."""

    def expected(wildcards):  # the job's part of its input, before the input exists
        lang = wildcards.get("lang", "en")
        part = share(wildcards) if share else 1.0
        if lang in DESIGN.imported_files:  # the relation files exist at parse time: their size, not the corpus's
            return imported_input_mb(demand.reads, DESIGN.imported_files[lang]) * part
        return expected_input_mb(demand.reads, lang, config, shards=len(relation_shards(lang))) * part

    return corpus_job_resources(demand, expected, share, config["request_node_scratch"])


# Jobs start longest first (training_priority), the short ones fill the cores at the end: the inputs (downloads,
# models, the LevyHolt subsets, the drawn hyper-parameters) and the 'S&S trials first, then the other trials, more
# training pairs first (priorities len(ALL_SUBSETS) ... 1; SherLIiC, of no known size, 0), then the chain from the
# corpus to BoOQA, its graphs and scores (priority 0: many jobs of a few minutes each, which the two cores share).
TOP_PRIORITY = len(ALL_SUBSETS) + 1


def run_cores():
    """The run's --cores (None on a cluster, where each job gets its own node's cores)."""
    return snakemake_state.run_cores(workflow)


def engine_threads(wildcards):
    """Threads of a corpus-wide engine job (DuckDB: merging relations, BoOQA's positives and negatives, a graph part):
    two, except in a run of fewer than 4 cores. On 2 cores a two-thread job cannot start beside a one-thread trial, so
    the BoOQA chain waited for the trials with the other core idle (issue 45, item 4); at one thread it runs beside them."""
    cores = run_cores()
    return 2 if cores is None or cores >= 4 else 1


def model_threads(wildcards=None):
    """Threads of a training or scoring job (training.threads: its number, or auto's share of --cores)."""
    return model_job_threads(config["training"]["threads"], run_cores())


def model_gpus(wildcards=None):
    """GPUs of a training or scoring job: training.gpus, or one where it is 0 and the run offers GPUs to its jobs
    (--resources gpu=N, as profiles/gpu does): then at most N such jobs run at once, and the others on the CPU."""
    return model_job_gpus(config["training"]["gpus"], snakemake_state.offered_gpus(workflow))


def trial_settings(wildcards):
    """TrainingSettings of one trial (RunDesign.trial_settings) at the threads of a training job."""
    return DESIGN.trial_settings(wildcards, model_threads())


# Every output of each phase (the inputs of its target in rules/phases.smk, which its DVC stage runs); each phase's
# file registers its <phase>_phase_targets here.
PHASE_TARGETS = {}


def phase_targets(name):
    return PHASE_TARGETS[name]()
