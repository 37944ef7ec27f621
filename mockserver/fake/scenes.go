package fake

// light is how much light a scene has: it drives ISO and exposure time.
type light int

const (
	lightBright light = iota // sunny outdoors
	lightNormal              // overcast, shade, bright interiors
	lightDim                 // evenings, rooms, restaurants
)

// rgb is a colour of a scene's palette.
type rgb [3]float64

// scene is what a photo shows. Its smart-info vocabulary is what a
// classifier (tags) and an object detector (objects) report for it, so the
// tags and objects of an asset always agree with each other and with its
// thumbhash colours.
type scene struct {
	name     string
	tags     []string // image classification labels
	objects  []string // detected objects
	light    light
	hourMin  int     // local hours when such photos are taken
	hourMax  int     // inclusive
	people   float64 // share of its photos with recognised faces
	video    float64 // share of videos
	sky      rgb     // thumbhash palette: top of the frame
	middle   rgb     // horizon or main subject
	ground   rgb     // bottom of the frame
	accent   rgb     // a spot of colour
	horizon  float64 // where the middle band sits, 0 top to 1 bottom
	captions []string
}

// Scene indices, for event kinds to refer to.
const (
	sceneBeach = iota
	sceneSunset
	sceneCity
	sceneFood
	sceneMuseum
	sceneMountain
	sceneHike
	sceneSnow
	sceneGarden
	sceneParty
	sceneFestive
	sceneHome
	sceneWedding
	sceneSafari
	sceneLake
	scenePet
	scenePlayground
)

// scenes is the table of scenes; read-only.
var scenes = [...]scene{
	sceneBeach: {name: "beach", tags: []string{"beach", "seashore", "sandbar", "sky", "ocean"}, objects: []string{"person", "umbrella", "surfboard", "boat", "kite"},
		light: lightBright, hourMin: 9, hourMax: 18, people: 0.6, video: 0.08,
		sky: rgb{135, 190, 235}, middle: rgb{40, 110, 170}, ground: rgb{225, 205, 160}, accent: rgb{240, 90, 60}, horizon: 0.45,
		captions: []string{"First swim of the summer", "Best beach day", "Sand everywhere"}},
	sceneSunset: {name: "sunset", tags: []string{"sunset", "sky", "dusk", "seashore", "cloud"}, objects: []string{"boat", "person", "bird"},
		light: lightDim, hourMin: 18, hourMax: 21, people: 0.25, video: 0.05,
		sky: rgb{80, 70, 130}, middle: rgb{250, 150, 70}, ground: rgb{45, 35, 50}, accent: rgb{255, 210, 120}, horizon: 0.55,
		captions: []string{"Golden hour", "What a sunset"}},
	sceneCity: {name: "city", tags: []string{"city", "street", "building", "church", "tower", "plaza"}, objects: []string{"person", "car", "bicycle", "bus", "traffic light"},
		light: lightNormal, hourMin: 9, hourMax: 20, people: 0.45, video: 0.07,
		sky: rgb{170, 190, 210}, middle: rgb{150, 130, 115}, ground: rgb{85, 85, 90}, accent: rgb{200, 60, 50}, horizon: 0.35,
		captions: []string{"Old town", "Getting lost in the streets"}},
	sceneFood: {name: "food", tags: []string{"restaurant", "food", "dish", "plate", "dessert"}, objects: []string{"dining table", "cup", "wine glass", "fork", "bowl", "bottle"},
		light: lightDim, hourMin: 12, hourMax: 22, people: 0.3, video: 0.02,
		sky: rgb{120, 85, 60}, middle: rgb{235, 228, 215}, ground: rgb{150, 100, 60}, accent: rgb{200, 120, 50}, horizon: 0.4,
		captions: []string{"Best dinner of the trip", "Lunch with a view"}},
	sceneMuseum: {name: "museum", tags: []string{"museum", "painting", "sculpture", "hall", "monastery"}, objects: []string{"person", "bench", "vase"},
		light: lightDim, hourMin: 10, hourMax: 18, people: 0.35, video: 0.02,
		sky: rgb{205, 195, 175}, middle: rgb{170, 140, 110}, ground: rgb{110, 80, 60}, accent: rgb{180, 40, 40}, horizon: 0.6},
	sceneMountain: {name: "mountain", tags: []string{"mountain", "alp", "valley", "cliff", "sky"}, objects: []string{"person", "backpack", "dog"},
		light: lightBright, hourMin: 8, hourMax: 19, people: 0.4, video: 0.06,
		sky: rgb{120, 170, 230}, middle: rgb{95, 105, 115}, ground: rgb{80, 130, 60}, accent: rgb{240, 240, 245}, horizon: 0.4,
		captions: []string{"Made it to the top", "View from the summit"}},
	sceneHike: {name: "hike", tags: []string{"forest", "trail", "valley", "hiking", "waterfall"}, objects: []string{"person", "backpack", "dog"},
		light: lightNormal, hourMin: 8, hourMax: 18, people: 0.5, video: 0.05,
		sky: rgb{160, 190, 200}, middle: rgb{50, 90, 40}, ground: rgb{120, 95, 60}, accent: rgb{200, 170, 60}, horizon: 0.3},
	sceneSnow: {name: "snow", tags: []string{"snow", "ski", "alp", "winter", "snowfield"}, objects: []string{"person", "skis", "snowboard"},
		light: lightBright, hourMin: 9, hourMax: 16, people: 0.55, video: 0.1,
		sky: rgb{150, 185, 230}, middle: rgb{240, 244, 250}, ground: rgb{225, 232, 240}, accent: rgb{40, 50, 60}, horizon: 0.35,
		captions: []string{"First run of the day", "Fresh powder"}},
	sceneGarden: {name: "garden", tags: []string{"garden", "flower", "tree", "lawn", "park"}, objects: []string{"person", "dog", "bench", "frisbee", "potted plant"},
		light: lightBright, hourMin: 9, hourMax: 20, people: 0.5, video: 0.06,
		sky: rgb{140, 185, 225}, middle: rgb{70, 140, 50}, ground: rgb{90, 150, 60}, accent: rgb{220, 80, 120}, horizon: 0.3},
	sceneParty: {name: "party", tags: []string{"birthday", "cake", "party", "candle", "balloon"}, objects: []string{"person", "cake", "cup", "chair", "dining table"},
		light: lightDim, hourMin: 13, hourMax: 22, people: 0.85, video: 0.12,
		sky: rgb{200, 150, 90}, middle: rgb{220, 90, 110}, ground: rgb{140, 100, 70}, accent: rgb{80, 150, 220}, horizon: 0.5,
		captions: []string{"Make a wish!", "Cake time"}},
	sceneFestive: {name: "festive", tags: []string{"christmas tree", "gift", "candle", "dinner", "ornament"}, objects: []string{"person", "dining table", "wine glass", "potted plant"},
		light: lightDim, hourMin: 11, hourMax: 23, people: 0.8, video: 0.07,
		sky: rgb{120, 35, 35}, middle: rgb{35, 85, 45}, ground: rgb{110, 70, 50}, accent: rgb{250, 200, 120}, horizon: 0.5},
	sceneHome: {name: "home", tags: []string{"living room", "sofa", "toy", "bedroom", "kitchen"}, objects: []string{"person", "couch", "tv", "book", "teddy bear", "laptop"},
		light: lightDim, hourMin: 7, hourMax: 21, people: 0.7, video: 0.1,
		sky: rgb{190, 170, 140}, middle: rgb{110, 95, 120}, ground: rgb{150, 120, 90}, accent: rgb{230, 200, 80}, horizon: 0.55},
	sceneWedding: {name: "wedding", tags: []string{"wedding", "bride", "groom", "church", "bouquet"}, objects: []string{"person", "tie", "wine glass", "vase"},
		light: lightNormal, hourMin: 11, hourMax: 23, people: 0.9, video: 0.08,
		sky: rgb{225, 220, 210}, middle: rgb{245, 240, 235}, ground: rgb{90, 130, 70}, accent: rgb{230, 160, 170}, horizon: 0.45},
	sceneSafari: {name: "safari", tags: []string{"savanna", "elephant", "zebra", "giraffe", "lion"}, objects: []string{"elephant", "zebra", "giraffe", "car", "bird"},
		light: lightBright, hourMin: 6, hourMax: 18, people: 0.2, video: 0.1,
		sky: rgb{150, 190, 225}, middle: rgb{190, 160, 90}, ground: rgb{165, 130, 80}, accent: rgb{70, 90, 50}, horizon: 0.45},
	sceneLake: {name: "lake", tags: []string{"lake", "lakeside", "boathouse", "dock", "mountain"}, objects: []string{"boat", "person", "bird", "dog"},
		light: lightNormal, hourMin: 8, hourMax: 20, people: 0.35, video: 0.05,
		sky: rgb{150, 185, 220}, middle: rgb{60, 110, 140}, ground: rgb{55, 90, 50}, accent: rgb{200, 60, 40}, horizon: 0.5},
	scenePet: {name: "pet", tags: []string{"dog", "cat", "puppy", "kitten", "lawn"}, objects: []string{"dog", "cat", "couch", "frisbee"},
		light: lightNormal, hourMin: 7, hourMax: 21, people: 0.3, video: 0.15,
		sky: rgb{175, 160, 135}, middle: rgb{160, 120, 80}, ground: rgb{100, 130, 70}, accent: rgb{60, 50, 45}, horizon: 0.45},
	scenePlayground: {name: "playground", tags: []string{"playground", "swing", "slide", "park", "child"}, objects: []string{"person", "bicycle", "sports ball", "bench"},
		light: lightBright, hourMin: 9, hourMax: 19, people: 0.8, video: 0.12,
		sky: rgb{140, 190, 235}, middle: rgb{220, 70, 60}, ground: rgb{110, 150, 70}, accent: rgb{250, 210, 60}, horizon: 0.4},
}

// customTags are the tags people add by hand.
var customTags = [...]string{"Family", "To print", "Holiday", "Wallpaper", "Framed", "Favourites", "Instagram", "Memories"}

// petNames are the names families give dogs and cats.
var petNames = [...]string{"Luna", "Max", "Bella", "Charlie", "Milo", "Coco", "Nala", "Rocky", "Simba", "Lola", "Teddy", "Pepper", "Biscuit", "Oreo"}

var monthNames = [...]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

var ordinalSuffix = [...]string{"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"}

// ordinal writes n as 1st, 2nd, 3rd, 11th, 22nd.
func ordinal(n int) string {
	s := itoa(n)
	if n%100 >= 11 && n%100 <= 13 {
		return s + "th"
	}
	return s + ordinalSuffix[n%10]
}

// flag returns the flag emoji of a country code.
func flag(cc string) string {
	if len(cc) != 2 {
		return ""
	}
	return string([]rune{0x1F1E6 + rune(cc[0]-'A'), 0x1F1E6 + rune(cc[1]-'A')})
}
