package query

import (
	"io"
	"math"
	"strconv"
)

// AppendJSON appends the JSON form of r to dst:
//
//	{"query":"...","start":1,"end":2,"step":1,
//	 "series":[{"labels":{"host":"a"},"values":[1.5,null]}]}
//
// NaN values are written as null. Label order follows r.
func AppendJSON(dst []byte, r *Result) []byte {
	dst = append(dst, `{"query":`...)
	dst = strconv.AppendQuote(dst, r.Query)
	dst = append(dst, `,"start":`...)
	dst = strconv.AppendInt(dst, r.Params.Start, 10)
	dst = append(dst, `,"end":`...)
	dst = strconv.AppendInt(dst, r.Params.End, 10)
	dst = append(dst, `,"step":`...)
	dst = strconv.AppendInt(dst, r.Params.Step, 10)
	dst = append(dst, `,"series":[`...)
	for i, s := range r.Series {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"labels":{`...)
		for j, l := range s.Labels {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendQuote(dst, l.Name)
			dst = append(dst, ':')
			dst = strconv.AppendQuote(dst, l.Value)
		}
		dst = append(dst, `},"values":[`...)
		for j, v := range s.Values {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = appendFloat(dst, v)
		}
		dst = append(dst, "]}"...)
	}
	return append(dst, "]}\n"...)
}

func appendFloat(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, "null"...)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// WriteJSON writes the JSON form of r (see [AppendJSON]) to w.
func WriteJSON(w io.Writer, r *Result) error {
	_, err := w.Write(AppendJSON(make([]byte, 0, 256+len(r.Series)*64), r))
	return err
}
