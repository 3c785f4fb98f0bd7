"""The figures' shared drawing rules: their colour schemes, decimal marks and signs
(``style``), and how a figure's twins are named and saved reproducibly (``files``).

The experiment and the examples draw with it, so it is part of each one's source
(provenance.source finds the import).
"""
