"""Large language models on the paper's question (McKenna, Li et al. 2023): per-pair predictions made elsewhere
(``predictions``: the documented input, joined to the workflow's LevyHolt test sets), the released predictions of
the 2023 paper in that form (``released``), and the LLM table (``tables.llm``)."""
