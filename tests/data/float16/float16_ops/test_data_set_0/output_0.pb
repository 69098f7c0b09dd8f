
BprobsJj)O,ó2ž/0›2	3