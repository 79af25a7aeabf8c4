package plot

// ChangeTicks exposes the interval figures' x ticks to the tests.
var ChangeTicks = changeTicks{}.Ticks
