#ttg.linear
