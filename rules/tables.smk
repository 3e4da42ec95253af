# Phase "tables": tables and figures of the paper from the scores, each beside the paper's numbers.


rule make_levyholt_table:
    input:
        all_levyholt_scores,
    output:
        "results/{table}.csv",
    wildcard_constraints:
        table="table1|table2|table6|figure1|figure2",
    params:
        models=levyholt_model_infos,
        scale=config["scale"],
    log:
        phase_log("tables", "make_levyholt_table", "{table}"),
    benchmark:
        phase_benchmark("tables", "make_levyholt_table", "{table}")
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/make_levyholt_table.py"


rule plot_mesh_figure:
    input:
        "results/{figure}.csv",
    output:
        png="results/{figure}.png",
        svg="results/{figure}.svg",
    wildcard_constraints:
        figure="figure1|figure2",
    log:
        phase_log("tables", "plot_mesh_figure", "{figure}"),
    benchmark:
        phase_benchmark("tables", "plot_mesh_figure", "{figure}")
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/plot_mesh_figure.py"
