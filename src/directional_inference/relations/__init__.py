"""Phase "relations": binary relations (subject, predicate, object) with argument types, from news sentences: English
(english), Chinese (chinese), and the relation record with its shards (shards)."""
