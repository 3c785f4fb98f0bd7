"""What every computation behind the pages shares: how it writes its files
(``files``), how it saves its figures reproducibly (``figures``) and how its
source is identified (``source``).

Both ``experiment`` and ``examples`` use it, so it is part of each one's
source: ``source.source_hash`` covers this package too.
"""
