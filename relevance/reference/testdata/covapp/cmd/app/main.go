// Command app is the workload driver of the example: it calls calc.Sum.
package main

import (
	"fmt"

	"example.com/covapp/calc"
)

func main() { fmt.Println(calc.Sum([]int{1, 2, 3})) }
