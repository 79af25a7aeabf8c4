module example.com/slowsetup

go 1.24
