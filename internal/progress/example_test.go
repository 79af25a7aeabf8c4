package progress_test

import (
	"fmt"
	"os"
	"time"

	"github.com/mbopt/mbopt/internal/progress"
)

// Outside a terminal only the permanent lines print; the bar and the ETA
// are what a terminal's status line shows.
func Example() {
	l := &progress.Line{W: os.Stdout}
	l.Draw("not printed: this is no terminal")
	l.Println("[1/4] ok")
	fmt.Println(progress.Bar(1, 4), progress.ETA(3*time.Second, 1, 3), progress.ETA(0, 0, 4))
	// Output:
	// [1/4] ok
	// [======                  ] 9s --
}
