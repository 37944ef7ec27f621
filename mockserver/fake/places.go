package fake

import "github.com/mediaspec/mediaspec/mockserver/gazetteer"

// cities are the gazetteer's cities, in its order: the generator picks
// places by their index. Only read.
var cities = gazetteer.Places()

// placeIndex returns the index of the city named city in the country with
// code cc, or -1.
func placeIndex(city, cc string) int {
	for i := range cities {
		if cities[i].City == city && cities[i].CC == cc {
			return i
		}
	}
	return -1
}
