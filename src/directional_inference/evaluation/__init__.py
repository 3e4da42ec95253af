"""Evaluation on BoOQA: evidence retrieval (evidence), the methods and their tables (methods) and the scorers (scoring)."""
