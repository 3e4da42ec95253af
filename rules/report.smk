# The benchmark summary of the report (`snakemake --report results/report.html`). Not a DVC phase:
# run times are facts about one machine, not reproducible artefacts.


rule summarise_benchmarks:
    input:
        [phase_targets(p.name) for p in PHASES],
    output:
        report("results/benchmarks.csv", caption="../report/benchmarks.rst", category="Benchmarks"),
    log:
        "logs/report/summarise_benchmarks.log",
    benchmark:
        "logs/report/summarise_benchmarks.benchmark.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/summarise_benchmarks.py"
