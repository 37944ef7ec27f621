// Copyright 2015 The Go Authors (golang.org/x/image/draw, BSD-style
// licence: the arithmetic below is its BiLinear kernel's, step for step).

package pictures

import (
	"image"
	"math"
)

// bilinear scales an *image.RGBA to dw×dh as draw.BiLinear.Scale with
// draw.Src does, to the bit, but a few rows at a time: the source's rows
// are scaled across once (draw's scaler does it again at every call, into
// a buffer of its sync.Pool that a GC, or the race detector, may drop),
// and rows paints any rows of the picture from them.
type bilinear struct {
	dw, dh     int
	horizontal distrib
	vertical   distrib
	tmp        [][4]float64 // the source's sh rows, each scaled to dw columns
}

// bilinearBytes is about what a bilinear of a dw×dh picture from a source
// sh rows high holds: tmp, and the distributions' sources and contribs (a
// column or row of an enlarged picture has two).
func bilinearBytes(dw, dh, sh int) int64 {
	return int64(dw)*int64(sh)*32 + (int64(dw)+int64(dh))*(24+2*16)
}

func newBilinear(src *image.RGBA, dw, dh int) *bilinear {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	z := &bilinear{
		dw: dw, dh: dh,
		horizontal: newDistrib(int32(dw), int32(sw)),
		vertical:   newDistrib(int32(dh), int32(sh)),
		tmp:        make([][4]float64, dw*sh),
	}
	// draw's scaleX_RGBA.
	t := 0
	for y := range sh {
		for _, s := range z.horizontal.sources {
			var pr, pg, pb, pa float64
			for _, c := range z.horizontal.contribs[s.i:s.j] {
				pi := y*src.Stride + int(c.coord)*4
				pru := uint32(src.Pix[pi+0]) * 0x101
				pgu := uint32(src.Pix[pi+1]) * 0x101
				pbu := uint32(src.Pix[pi+2]) * 0x101
				pau := uint32(src.Pix[pi+3]) * 0x101
				// The conversions keep the compiler from fusing a multiply
				// and an add, which would round otherwise.
				pr += float64(float64(pru) * c.weight)
				pg += float64(float64(pgu) * c.weight)
				pb += float64(float64(pbu) * c.weight)
				pa += float64(float64(pau) * c.weight)
			}
			z.tmp[t] = [4]float64{
				pr * s.invTotalWeightFFFF,
				pg * s.invTotalWeightFFFF,
				pb * s.invTotalWeightFFFF,
				pa * s.invTotalWeightFFFF,
			}
			t++
		}
	}
	return z
}

// rows paints the rows dst.Rect holds (within 0 to dh) of the dw×dh
// picture; dst.Rect spans its width. Each pixel is draw's
// scaleY_RGBA_Src's, painted a row rather than a column at a time.
func (z *bilinear) rows(dst *image.RGBA) {
	y0, y1 := max(dst.Rect.Min.Y, 0), min(dst.Rect.Max.Y, z.dh)
	for y := y0; y < y1; y++ {
		s := z.vertical.sources[y]
		contribs := z.vertical.contribs[s.i:s.j]
		row := dst.Pix[(y-dst.Rect.Min.Y)*dst.Stride:][:z.dw*4]
		for dx := range z.dw {
			var pr, pg, pb, pa float64
			for _, c := range contribs {
				p := &z.tmp[int(c.coord)*z.dw+dx]
				pr += float64(p[0] * c.weight)
				pg += float64(p[1] * c.weight)
				pb += float64(p[2] * c.weight)
				pa += float64(p[3] * c.weight)
			}
			pr, pg, pb = min(pr, pa), min(pg, pa), min(pb, pa)
			px := row[dx*4 : dx*4+4 : dx*4+4]
			px[0] = uint8(ftou(pr*s.invTotalWeight) >> 8)
			px[1] = uint8(ftou(pg*s.invTotalWeight) >> 8)
			px[2] = uint8(ftou(pb*s.invTotalWeight) >> 8)
			px[3] = uint8(ftou(pa*s.invTotalWeight) >> 8)
		}
	}
}

// source is a range of contribs, their inverse total weight, and that
// divided by 0xffff.
type source struct {
	i, j               int32
	invTotalWeight     float64
	invTotalWeightFFFF float64
}

// contrib is the weight of a column or row.
type contrib struct {
	coord  int32
	weight float64
}

// distrib is how source columns (or rows) are spread over the picture's.
type distrib struct {
	sources  []source
	contribs []contrib
}

// newDistrib spreads sw source columns (or rows) over dw, with the tent
// kernel of support 1: draw's newDistrib for draw.BiLinear.
func newDistrib(dw, sw int32) distrib {
	const support = 1.0
	scale := float64(sw) / float64(dw)
	halfWidth, kernelArgScale := support, 1.0
	if scale > 1 { // shrinking: every source pixel is still visited
		halfWidth *= scale
		kernelArgScale = 1 / scale
	}
	// invTotalWeight holds, for a while, the source coordinate of each
	// column, and i and j the range of source columns that reach it.
	n, sources := int32(0), make([]source, dw)
	for x := range sources {
		center := float64((float64(x)+0.5)*scale) - 0.5
		i := max(int32(math.Floor(center-halfWidth)), 0)
		j := int32(math.Ceil(center + halfWidth))
		if j > sw {
			j = max(sw, i)
		}
		sources[x] = source{i: i, j: j, invTotalWeight: center}
		n += j - i
	}
	contribs := make([]contrib, 0, n)
	for k, b := range sources {
		totalWeight := 0.0
		l := int32(len(contribs))
		for coord := b.i; coord < b.j; coord++ {
			t := (b.invTotalWeight - float64(coord)) * kernelArgScale
			if t < 0 {
				t = -t
			}
			if t >= support {
				continue
			}
			weight := 1 - t
			if weight == 0 {
				continue
			}
			totalWeight += weight
			contribs = append(contribs, contrib{coord, weight})
		}
		totalWeight = 1 / totalWeight
		sources[k] = source{i: l, j: int32(len(contribs)), invTotalWeight: totalWeight, invTotalWeightFFFF: totalWeight / 0xffff}
	}
	return distrib{sources, contribs}
}

// ftou converts [0, 1] to [0, 0xffff], as draw's does.
func ftou(f float64) uint16 {
	i := int32(float64(0xffff*f) + 0.5)
	if i > 0xffff {
		return 0xffff
	}
	if i > 0 {
		return uint16(i)
	}
	return 0
}
