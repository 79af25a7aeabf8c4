module example.com/suitefix

go 1.26
