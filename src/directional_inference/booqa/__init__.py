"""BoOQA, the Boolean open-QA benchmark of Li et al. (2022, §4.1 and Appendix D), built from news relations in
stages, one module each:

* ``positives``: starring argument pairs x felicitous predicates (``select_booqa_positives``);
* ``senses`` and ``negatives``: WordNet-hyponym negatives, felicitous and absent from the window
  (``generate_booqa_negatives``);
* ``sampling``: frequency-matched bundles per window, dev / test by windows (``sample_booqa``);
* ``validation``: the invariants of a built dataset (``validate_booqa``);
* ``release``: Parquet / JSON lines export and the dataset card;
* ``hyponly``: the type-masked hypothesis-only splits of the robustness test (``build_booqa_hyponly``).
"""
