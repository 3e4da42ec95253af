"""The S&S prompt classifier (Schmitt & Schütze 2021) with the authors' bug-fixed prompts, in four parts:

* ``prompts``: the prompt and antiprompt templates (English and Chinese) and the sentences of a pair;
* ``model``: ``PromptScorer``, a sequence classifier over prompt sentences (tokenised once, padded per batch):
  loss and score of pairs;
* ``training``: fine-tuning with dev evaluations during training, the best point kept, resumable checkpoints;
* ``search``: the hyper-parameter trials (drawn once, the same for every subset) and the choice of the best trial.
"""

VARIANTS = ("sns", "sns_sym", "hyponly")  # S&S, 'S&S (symmetric prompts), hypothesis-only S&S
