"""Phase "resources": every external input (inputs), its verified download (fetch), the language models (models) and
WordNet for NLTK (wordnet)."""
