Bej
locationdata.binp