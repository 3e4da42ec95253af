"""Reproduction workflow for Li et al. (2022), "Language Models Are Poor Learners of Directional Inference".

The package holds all logic; Snakemake rule scripts under ``scripts/`` only unpack the ``snakemake``
object and call into it. No module here imports Snakemake.
"""

__version__ = "0.1.0"
