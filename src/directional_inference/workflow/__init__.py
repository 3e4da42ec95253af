"""What drives the phases, apart from what they compute: the phase list and its DVC stages (``phases``,
``dvc_pipeline``), the config's checks, reference and dotted keys (``config_checks``, ``config_reference``,
``config_tree``), the jobs' resource requests and the plan of a run (``job_resources``, ``plan``), the rule scripts'
logging (``rulelog``) and the benchmark summary (``benchmarks``)."""
