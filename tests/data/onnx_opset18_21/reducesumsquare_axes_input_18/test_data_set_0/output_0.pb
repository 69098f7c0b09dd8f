ByJ0Žõ1B9l-B/v>B ”OBßFB'n-B
¶SB-CB*CBëB/ð†BzõFB