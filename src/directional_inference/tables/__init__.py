"""The paper's tables and figures from score files, each number beside the paper's and with a bootstrap interval:

* ``common``: how a score file becomes numbers (metrics, intervals) and cells; CSV writing;
* ``levyholt``: Tables 1, 2, 6 and the numbers of Figures 1-2 (LevyHolt);
* ``booqa``: Tables 5, 15, 16 and 3 (BoOQA);
* ``generality``: what Table 3's hypothesis-only models rank BoOQA by (WordNet depth, frequency);
* ``figures``: the sub-group mesh (Figures 1-2) and the BoOQA precision-recall curves (Figure 3);
* ``summary``: every table number as DVC metrics, and precision-recall points as DVC plots.

Table 4 (BoOQA sizes) is written by ``scripts/make_table4.py``; Table 17 by ``table17``.
"""
