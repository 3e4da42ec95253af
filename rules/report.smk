from directional_inference.tools.rulegraph import definition_digest

# The benchmark summary of the report (`snakemake --report results/report.html`). Not a DVC phase:
# run times are facts about one machine, not reproducible artefacts.


rule summarise_benchmarks:
    input:
        [phase_targets(p.name) for p in PHASES],
    output:
        report(layout.result("benchmarks.csv"), caption="../report/benchmarks.rst", category="Benchmarks"),
    log:
        layout.job_log("report", "summarise_benchmarks"),
    benchmark:
        layout.job_benchmark("report", "summarise_benchmarks")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/summarise_benchmarks.py"


# A picture of the workflow (docs/rulegraph.svg is this target's on the default config): Snakemake's rule graph of the
# default target for this run's config, drawn by rules/report.smk's script. It is made again when the config or a
# rule file changes.
rule draw_rulegraph:
    output:
        layout.result("rulegraph.svg"),
    log:
        layout.job_log("report", "draw_rulegraph"),
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        definition=definition_digest(workflow.basedir),
        config=config,
        title=f"The rule graph of the default target ({', '.join(map(str, workflow.overwrite_configfiles)) or 'config/config.yaml'})",
    script:
        "../scripts/draw_rulegraph.py"
