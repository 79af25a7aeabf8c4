package flow

import (
	"fmt"

	"github.com/mbopt/mbopt/callgraph"
)

// RunStability compares the application profiles of repeated runs of one
// workload (Config.AppRuns): a function seen in only some runs is one whose
// coverage depends on chance. Function names are normalised as in package
// callgraph, and project functions are those of Report.Modules.
type RunStability struct {
	// Files are the runs' profiles, in run order.
	Files []string
	// Seen counts the functions seen in any run; Every those seen in
	// every run, so Seen − Every were seen in only some.
	Seen, Every int
	// ProjectSeen and ProjectEvery count the project functions among them.
	ProjectSeen, ProjectEvery int
	// PerRun[i] counts the functions run i+1 saw, ProjectPerRun[i] the
	// project functions.
	PerRun, ProjectPerRun []int
}

// Some returns Seen − Every: the functions seen in only some runs.
func (s *RunStability) Some() int { return s.Seen - s.Every }

// ProjectSome returns ProjectSeen − ProjectEvery.
func (s *RunStability) ProjectSome() int { return s.ProjectSeen - s.ProjectEvery }

// CompareRuns loads each profile in files as one run of a workload and
// counts the functions seen in every run and in only some, project
// functions (of modules) apart. Errors are callgraph.Load's.
func CompareRuns(files []string, modules []string, limits callgraph.Limits) (*RunStability, error) {
	s := &RunStability{Files: files}
	times := map[string]int{}
	project := map[string]bool{}
	for _, f := range files {
		g, err := callgraph.Load([]string{f}, callgraph.Options{Modules: modules, NoEdges: true, Limits: limits})
		if err != nil {
			return nil, err
		}
		n, p := 0, 0
		for _, node := range g.Nodes {
			times[node.Name]++
			project[node.Name] = node.Project
			n++
			if node.Project {
				p++
			}
		}
		s.PerRun = append(s.PerRun, n)
		s.ProjectPerRun = append(s.ProjectPerRun, p)
	}
	for name, k := range times {
		s.Seen++
		if project[name] {
			s.ProjectSeen++
		}
		if k == len(files) {
			s.Every++
			if project[name] {
				s.ProjectEvery++
			}
		}
	}
	return s, nil
}

// String says what the workload's runs saw: the functions seen in every
// run and in only some, all and the project's.
func (s *RunStability) String() string {
	return fmt.Sprintf("workload: %d runs: %d functions seen, %d in every run, %d in only some (project: %d seen, %d in every run, %d in only some)",
		len(s.Files), s.Seen, s.Every, s.Some(), s.ProjectSeen, s.ProjectEvery, s.ProjectSome())
}
