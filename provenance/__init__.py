"""How a computation's source is identified (``source``): the hash that its output
records and that the site build keys its cached run on.

Every computation depends on it, so ``source.source_hash`` covers this package too.
"""
