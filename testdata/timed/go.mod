module example.com/timed

go 1.24
