#ttg.linear<[[0, 1]]>
