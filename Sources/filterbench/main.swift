print("filterbench")
