print("filterrun")
