"""Reproduction workflow for Li et al. (2022), "Language Models Are Poor Learners of Directional Inference".

The package holds all logic; Snakemake rule scripts under ``scripts/`` only unpack the ``snakemake`` object and call
into it. No module here runs Snakemake or reads its state; two read the config as Snakemake merges it
(``snakemake.utils``: ``config_tree.run_config``, ``resources.pins``).

Its modules and subpackages stand in layers, and a module imports only from its own layer or the ones below it
(tests/test_conventions.py holds this list against every import, deferred ones too):

1. foundation: errors, atomic, layout, progress, chinese_text, user_files, metrics, compute, encoders, config_tree, generated,
   scratch, resume
2. engine
3. resources, corpus, levyholt
4. relations, graphs
5. booqa, sns, llm
6. evaluation
7. tables
8. workflow
9. recovery, tools
"""

__version__ = "0.1.0"
