module example.com/tinytsdb

go 1.24
