package fake

// deviceKind says how a device is used and how its files reach the library.
type deviceKind int

const (
	kindPhone  deviceKind = iota
	kindCamera            // interchangeable-lens or compact camera
	kindAction            // action camera, mostly video
	kindDrone
	kind360 // 360° camera: equirectangular stills
)

// naming is how a device names its files.
type naming int

const (
	nameIOS       naming = iota // IMG_1234.HEIC, IMG_1234.MOV
	namePixel                   // PXL_20240512_093012345.jpg, in UTC
	nameSamsung                 // 20240512_093012.jpg, local time
	nameXiaomi                  // IMG_20240512_093012.jpg, VID_20240512_093012.mp4
	nameOnePlus                 // IMG20240512093012.jpg, VID20240512093012.mp4
	nameSony                    // DSC01234.JPG, C0012.MP4
	nameCanon                   // IMG_1234.JPG, MVI_1234.MP4
	nameNikon                   // DSC_1234.JPG, DSC_1234.MOV
	nameFuji                    // DSCF1234.JPG, DSCF1234.MOV
	nameOlympus                 // P5121234.JPG: month in base 36, day, counter
	namePanasonic               // P1040123.JPG: folder and counter
	nameGoPro                   // GOPR1234.JPG, GX011234.MP4
	nameDJI                     // DJI_0123.JPG, DJI_0123.MP4
	nameInsta360                // IMG_20240512_093012_00_123.insp, VID_..._00_124.insv
)

// lens is a lens as the camera names it in exif. model "" means the camera
// writes no lens model (fixed-lens cameras and most Android phones).
type lens struct {
	model          string
	focalMin       float64 // mm
	focalMax       float64 // mm; equal to focalMin for a prime
	apertureWide   float64 // widest f-number at focalMin
	apertureTele   float64 // widest f-number at focalMax
	front          bool    // a phone's selfie camera
	frontW, frontH int     // its image size
	weight         int     // how often it is used
	fixedAperture  bool    // phones and small sensors cannot stop down
}

// device is a real camera or phone model and the exif it writes.
type device struct {
	make, model string
	kind        deviceKind
	year        int // release year: a library uses no device before it exists
	naming      naming
	lenses      []lens
	dims        [][2]int // still sizes, landscape, most common first
	stillExt    string   // extension of stills
	rawExt      string   // extension of raw files, "" when none
	videoExt    string
	gps         bool // stills and videos carry GPS
	offsetTime  bool // writes OffsetTimeOriginal, so exif has a time zone without GPS
	stillMB     [2]float64
	rawMB       [2]float64
	videoMbps   [2]float64 // bitrate range
	videoDims   [][2]int
	live        bool   // takes Live Photos
	ios         bool   // iPhone: deviceAssetId is a PhotoKit local identifier
	description string // what the camera writes in ImageDescription
	projection  string // exif projection type of stills
}

func ios(model string, year int, back []lens, front lens, dims [][2]int, ext string) device {
	return device{
		make: "Apple", model: model, kind: kindPhone, year: year, naming: nameIOS,
		lenses: append(back, front), dims: dims, stillExt: ext, videoExt: "MOV",
		gps: true, offsetTime: true, stillMB: [2]float64{1.1, 3.8}, videoMbps: [2]float64{9, 48},
		videoDims: [][2]int{{1920, 1080}, {3840, 2160}}, live: true, ios: true,
	}
}

func appleLens(model string, focal, aperture float64, weight int) lens {
	return lens{model: model, focalMin: focal, focalMax: focal, apertureWide: aperture, apertureTele: aperture, weight: weight, fixedAperture: true}
}

func appleFront(model string, focal, aperture float64, w, h int) lens {
	l := appleLens(model, focal, aperture, 1)
	l.front, l.frontW, l.frontH = true, w, h
	return l
}

func androidLens(focal, aperture float64, weight int) lens {
	return lens{focalMin: focal, focalMax: focal, apertureWide: aperture, apertureTele: aperture, weight: weight, fixedAperture: true}
}

func androidFront(focal, aperture float64, w, h int) lens {
	l := androidLens(focal, aperture, 1)
	l.front, l.frontW, l.frontH = true, w, h
	return l
}

func android(make, model string, year int, n naming, back []lens, front lens, dims [][2]int) device {
	return device{
		make: make, model: model, kind: kindPhone, year: year, naming: n,
		lenses: append(back, front), dims: dims, stillExt: "jpg", videoExt: "mp4",
		gps: true, offsetTime: true, stillMB: [2]float64{2.2, 6.5}, videoMbps: [2]float64{12, 42},
		videoDims: [][2]int{{1920, 1080}, {3840, 2160}},
	}
}

func zoom(model string, focalMin, focalMax, wide, tele float64, weight int) lens {
	return lens{model: model, focalMin: focalMin, focalMax: focalMax, apertureWide: wide, apertureTele: tele, weight: weight}
}

var (
	dims4032 = [][2]int{{4032, 3024}}
	dims24MP = [][2]int{{5712, 4284}, {4032, 3024}}
)

// phones is the catalogue of phones, oldest first within each maker; read-only.
var phones = [...]device{
	ios("iPhone 6s", 2015, []lens{appleLens("iPhone 6s back camera 4.15mm f/2.2", 4.15, 2.2, 9)},
		appleFront("iPhone 6s front camera 2.65mm f/2.2", 2.65, 2.2, 2576, 1932), dims4032, "JPG"),
	ios("iPhone 8", 2017, []lens{appleLens("iPhone 8 back camera 3.99mm f/1.8", 3.99, 1.8, 9)},
		appleFront("iPhone 8 front camera 2.87mm f/2.2", 2.87, 2.2, 3088, 2320), dims4032, "HEIC"),
	ios("iPhone XR", 2018, []lens{appleLens("iPhone XR back camera 4.25mm f/1.8", 4.25, 1.8, 9)},
		appleFront("iPhone XR front camera 2.87mm f/2.2", 2.87, 2.2, 3088, 2320), dims4032, "HEIC"),
	ios("iPhone 11", 2019, []lens{
		appleLens("iPhone 11 back dual wide camera 4.25mm f/1.8", 4.25, 1.8, 7),
		appleLens("iPhone 11 back dual wide camera 1.54mm f/2.4", 1.54, 2.4, 2)},
		appleFront("iPhone 11 front camera 2.71mm f/2.2", 2.71, 2.2, 4032, 3024), dims4032, "HEIC"),
	ios("iPhone 12 mini", 2020, []lens{
		appleLens("iPhone 12 mini back dual wide camera 4.2mm f/1.6", 4.2, 1.6, 7),
		appleLens("iPhone 12 mini back dual wide camera 1.55mm f/2.4", 1.55, 2.4, 2)},
		appleFront("iPhone 12 mini front camera 2.71mm f/2.2", 2.71, 2.2, 4032, 3024), dims4032, "HEIC"),
	ios("iPhone 13", 2021, []lens{
		appleLens("iPhone 13 back dual wide camera 5.1mm f/1.6", 5.1, 1.6, 7),
		appleLens("iPhone 13 back dual wide camera 1.54mm f/2.4", 1.54, 2.4, 2)},
		appleFront("iPhone 13 front camera 2.71mm f/2.2", 2.71, 2.2, 4032, 3024), dims4032, "HEIC"),
	ios("iPhone 14 Pro", 2022, []lens{
		appleLens("iPhone 14 Pro back triple camera 6.86mm f/1.78", 6.86, 1.78, 6),
		appleLens("iPhone 14 Pro back triple camera 2.22mm f/2.2", 2.22, 2.2, 2),
		appleLens("iPhone 14 Pro back triple camera 9mm f/2.8", 9, 2.8, 2)},
		appleFront("iPhone 14 Pro front camera 2.69mm f/1.9", 2.69, 1.9, 4032, 3024), dims4032, "HEIC"),
	ios("iPhone 15 Pro", 2023, []lens{
		appleLens("iPhone 15 Pro back triple camera 6.765mm f/1.78", 6.765, 1.78, 6),
		appleLens("iPhone 15 Pro back triple camera 2.22mm f/2.2", 2.22, 2.2, 2),
		appleLens("iPhone 15 Pro back triple camera 9mm f/2.8", 9, 2.8, 2)},
		appleFront("iPhone 15 Pro front camera 2.69mm f/1.9", 2.69, 1.9, 4032, 3024), dims24MP, "HEIC"),
	ios("iPhone 16", 2024, []lens{
		appleLens("iPhone 16 back dual wide camera 5.96mm f/1.6", 5.96, 1.6, 7),
		appleLens("iPhone 16 back dual wide camera 1.56mm f/2.2", 1.56, 2.2, 2)},
		appleFront("iPhone 16 front camera 2.69mm f/1.9", 2.69, 1.9, 4032, 3024), dims24MP, "HEIC"),

	android("samsung", "SM-G930F", 2016, nameSamsung, []lens{androidLens(4.2, 1.7, 1)}, androidFront(2.1, 1.7, 2592, 1944), [][2]int{{4032, 3024}}),
	android("samsung", "SM-G960F", 2018, nameSamsung, []lens{androidLens(4.3, 1.5, 1)}, androidFront(2.59, 1.7, 3264, 2448), [][2]int{{4032, 3024}}),
	android("samsung", "SM-G973F", 2019, nameSamsung, []lens{androidLens(4.32, 1.5, 7), androidLens(1.77, 2.2, 2)}, androidFront(2.59, 1.9, 3648, 2736), [][2]int{{4032, 3024}, {4032, 2268}}),
	android("samsung", "SM-G991B", 2021, nameSamsung, []lens{androidLens(5.4, 1.8, 7), androidLens(2.2, 2.2, 2)}, androidFront(2.74, 2.2, 3648, 2736), [][2]int{{4000, 3000}, {4000, 2252}}),
	android("samsung", "SM-A525F", 2021, nameSamsung, []lens{androidLens(5.23, 1.8, 7), androidLens(1.85, 2.2, 2)}, androidFront(2.59, 2.2, 3264, 2448), [][2]int{{4000, 3000}}),
	android("samsung", "SM-S911B", 2023, nameSamsung, []lens{androidLens(5.4, 1.8, 7), androidLens(2.2, 2.2, 2)}, androidFront(2.74, 2.2, 3648, 2736), [][2]int{{4000, 3000}, {4000, 2252}}),
	android("samsung", "SM-A546B", 2023, nameSamsung, []lens{androidLens(5.5, 1.8, 7), androidLens(2.2, 2.2, 2)}, androidFront(2.74, 2.2, 3264, 2448), [][2]int{{4080, 3060}}),
	android("samsung", "SM-S921B", 2024, nameSamsung, []lens{androidLens(6.3, 1.8, 7), androidLens(2.2, 2.2, 2)}, androidFront(2.94, 2.2, 3648, 2736), [][2]int{{4000, 3000}, {4000, 2252}}),

	// The Pixel 3 named files IMG_...; PXL_ names came with Android 11.
	android("Google", "Pixel 3", 2018, nameXiaomi, []lens{androidLens(4.44, 1.8, 1)}, androidFront(3.38, 1.8, 3264, 2448), [][2]int{{4032, 3024}}),
	android("Google", "Pixel 4a", 2020, namePixel, []lens{androidLens(4.38, 1.73, 1)}, androidFront(2.51, 2.0, 3264, 2448), [][2]int{{4032, 3024}}),
	android("Google", "Pixel 6", 2021, namePixel, []lens{androidLens(6.81, 1.85, 7), androidLens(1.91, 2.2, 2)}, androidFront(2.7, 2.0, 3264, 2448), [][2]int{{4080, 3072}}),
	android("Google", "Pixel 7", 2022, namePixel, []lens{androidLens(6.81, 1.85, 7), androidLens(1.95, 2.2, 2)}, androidFront(2.74, 2.2, 3264, 2448), [][2]int{{4080, 3072}}),
	android("Google", "Pixel 8", 2023, namePixel, []lens{androidLens(6.9, 1.68, 7), androidLens(2.02, 2.2, 2)}, androidFront(2.74, 2.2, 3264, 2448), [][2]int{{4080, 3072}}),
	android("Google", "Pixel 9", 2024, namePixel, []lens{androidLens(6.9, 1.68, 7), androidLens(2.02, 1.7, 2)}, androidFront(2.74, 2.2, 3264, 2448), [][2]int{{4080, 3072}}),

	android("Xiaomi", "Redmi Note 8 Pro", 2019, nameXiaomi, []lens{androidLens(4.77, 1.89, 1)}, androidFront(3.05, 2.0, 4608, 3456), [][2]int{{4624, 3472}}),
	android("Xiaomi", "M2101K6G", 2021, nameXiaomi, []lens{androidLens(5.43, 1.9, 7), androidLens(1.79, 2.2, 2)}, androidFront(3.05, 2.45, 3264, 2448), [][2]int{{4000, 3000}}),
	android("Xiaomi", "2211133G", 2023, nameXiaomi, []lens{androidLens(5.4, 1.8, 7), androidLens(1.75, 2.2, 2)}, androidFront(3.6, 2.0, 3264, 2448), [][2]int{{4096, 3072}}),
	android("OnePlus", "ONEPLUS A6003", 2018, nameXiaomi, []lens{androidLens(4.25, 1.7, 1)}, androidFront(3.46, 2.0, 3456, 4608), [][2]int{{4608, 3456}}),
	android("OnePlus", "CPH2449", 2023, nameOnePlus, []lens{androidLens(5.59, 1.8, 7), androidLens(2.2, 2.2, 2)}, androidFront(2.74, 2.45, 3264, 2448), [][2]int{{4096, 3072}}),
}

// cameras is the catalogue of cameras, drones and action cameras; read-only.
var cameras = [...]device{
	{make: "SONY", model: "ILCE-7M3", kind: kindCamera, year: 2018, naming: nameSony,
		lenses: []lens{zoom("FE 24-70mm F2.8 GM", 24, 70, 2.8, 2.8, 5), zoom("FE 85mm F1.8", 85, 85, 1.8, 1.8, 2), zoom("FE 28-70mm F3.5-5.6 OSS", 28, 70, 3.5, 5.6, 3)},
		dims:   [][2]int{{6000, 4000}}, stillExt: "JPG", rawExt: "ARW", videoExt: "MP4",
		stillMB: [2]float64{7, 14}, rawMB: [2]float64{24, 48}, videoMbps: [2]float64{60, 100}, videoDims: [][2]int{{3840, 2160}, {1920, 1080}}},
	{make: "SONY", model: "ILCE-6400", kind: kindCamera, year: 2019, naming: nameSony,
		lenses: []lens{zoom("E 18-135mm F3.5-5.6 OSS", 18, 135, 3.5, 5.6, 5), zoom("E 35mm F1.8 OSS", 35, 35, 1.8, 1.8, 2), zoom("E 10-18mm F4 OSS", 10, 18, 4, 4, 1)},
		dims:   [][2]int{{6000, 4000}}, stillExt: "JPG", rawExt: "ARW", videoExt: "MP4",
		stillMB: [2]float64{7, 13}, rawMB: [2]float64{23, 25}, videoMbps: [2]float64{60, 100}, videoDims: [][2]int{{3840, 2160}, {1920, 1080}}},
	{make: "Canon", model: "Canon EOS 80D", kind: kindCamera, year: 2016, naming: nameCanon,
		lenses: []lens{zoom("EF-S18-135mm f/3.5-5.6 IS USM", 18, 135, 3.5, 5.6, 5), zoom("EF50mm f/1.8 STM", 50, 50, 1.8, 1.8, 2), zoom("EF-S10-18mm f/4.5-5.6 IS STM", 10, 18, 4.5, 5.6, 1)},
		dims:   [][2]int{{6000, 4000}}, stillExt: "JPG", rawExt: "CR2", videoExt: "MP4",
		stillMB: [2]float64{6, 10}, rawMB: [2]float64{24, 31}, videoMbps: [2]float64{30, 60}, videoDims: [][2]int{{1920, 1080}}},
	{make: "Canon", model: "Canon EOS R6", kind: kindCamera, year: 2020, naming: nameCanon, offsetTime: true,
		lenses: []lens{zoom("RF24-105mm F4 L IS USM", 24, 105, 4, 4, 5), zoom("RF50mm F1.8 STM", 50, 50, 1.8, 1.8, 2), zoom("RF35mm F1.8 MACRO IS STM", 35, 35, 1.8, 1.8, 2)},
		dims:   [][2]int{{5472, 3648}}, stillExt: "JPG", rawExt: "CR3", videoExt: "MP4",
		stillMB: [2]float64{5, 11}, rawMB: [2]float64{20, 28}, videoMbps: [2]float64{80, 120}, videoDims: [][2]int{{3840, 2160}}},
	{make: "NIKON CORPORATION", model: "NIKON Z 6_2", kind: kindCamera, year: 2020, naming: nameNikon, offsetTime: true,
		lenses: []lens{zoom("NIKKOR Z 24-70mm f/4 S", 24, 70, 4, 4, 5), zoom("NIKKOR Z 50mm f/1.8 S", 50, 50, 1.8, 1.8, 2), zoom("NIKKOR Z 85mm f/1.8 S", 85, 85, 1.8, 1.8, 1)},
		dims:   [][2]int{{6048, 4024}}, stillExt: "JPG", rawExt: "NEF", videoExt: "MOV",
		stillMB: [2]float64{8, 15}, rawMB: [2]float64{25, 35}, videoMbps: [2]float64{100, 144}, videoDims: [][2]int{{3840, 2160}}},
	{make: "NIKON CORPORATION", model: "NIKON D7500", kind: kindCamera, year: 2017, naming: nameNikon,
		lenses: []lens{zoom("AF-S DX NIKKOR 18-140mm f/3.5-5.6G ED VR", 18, 140, 3.5, 5.6, 5), zoom("AF-S DX NIKKOR 35mm f/1.8G", 35, 35, 1.8, 1.8, 2)},
		dims:   [][2]int{{5568, 3712}}, stillExt: "JPG", rawExt: "NEF", videoExt: "MOV",
		stillMB: [2]float64{6, 11}, rawMB: [2]float64{20, 26}, videoMbps: [2]float64{40, 80}, videoDims: [][2]int{{3840, 2160}, {1920, 1080}}},
	{make: "FUJIFILM", model: "X-T4", kind: kindCamera, year: 2020, naming: nameFuji, offsetTime: true,
		lenses: []lens{zoom("XF16-80mmF4 R OIS WR", 16, 80, 4, 4, 5), zoom("XF35mmF1.4 R", 35, 35, 1.4, 1.4, 2), zoom("XF23mmF2 R WR", 23, 23, 2, 2, 2)},
		dims:   [][2]int{{6240, 4160}}, stillExt: "JPG", rawExt: "RAF", videoExt: "MOV",
		stillMB: [2]float64{8, 16}, rawMB: [2]float64{30, 55}, videoMbps: [2]float64{100, 200}, videoDims: [][2]int{{3840, 2160}}},
	{make: "FUJIFILM", model: "X100V", kind: kindCamera, year: 2020, naming: nameFuji, offsetTime: true,
		lenses: []lens{{focalMin: 23, focalMax: 23, apertureWide: 2, apertureTele: 2, weight: 1}},
		dims:   [][2]int{{6240, 4160}}, stillExt: "JPG", rawExt: "RAF", videoExt: "MOV",
		stillMB: [2]float64{8, 15}, rawMB: [2]float64{30, 50}, videoMbps: [2]float64{100, 200}, videoDims: [][2]int{{3840, 2160}}},
	{make: "OLYMPUS CORPORATION", model: "E-M10MarkIII", kind: kindCamera, year: 2017, naming: nameOlympus,
		lenses: []lens{zoom("OLYMPUS M.14-42mm F3.5-5.6 EZ", 14, 42, 3.5, 5.6, 5), zoom("OLYMPUS M.45mm F1.8", 45, 45, 1.8, 1.8, 2), zoom("OLYMPUS M.40-150mm F4.0-5.6 R", 40, 150, 4, 5.6, 2)},
		dims:   [][2]int{{4608, 3456}}, stillExt: "JPG", rawExt: "ORF", videoExt: "MOV",
		stillMB: [2]float64{5, 8}, rawMB: [2]float64{13, 17}, videoMbps: [2]float64{52, 102}, videoDims: [][2]int{{3840, 2160}, {1920, 1080}},
		description: "OLYMPUS DIGITAL CAMERA"},
	{make: "Panasonic", model: "DC-G9", kind: kindCamera, year: 2018, naming: namePanasonic, offsetTime: true,
		lenses: []lens{zoom("LEICA DG 12-60/F2.8-4.0", 12, 60, 2.8, 4, 5), zoom("LUMIX G 25/F1.7", 25, 25, 1.7, 1.7, 2)},
		dims:   [][2]int{{5184, 3888}}, stillExt: "JPG", rawExt: "RW2", videoExt: "MP4",
		stillMB: [2]float64{7, 12}, rawMB: [2]float64{21, 26}, videoMbps: [2]float64{100, 150}, videoDims: [][2]int{{3840, 2160}}},
	{make: "GoPro", model: "HERO9 Black", kind: kindAction, year: 2020, naming: nameGoPro, gps: true,
		lenses: []lens{{focalMin: 2.92, focalMax: 2.92, apertureWide: 2.5, apertureTele: 2.5, weight: 1, fixedAperture: true}},
		dims:   [][2]int{{5184, 3888}}, stillExt: "JPG", videoExt: "MP4",
		stillMB: [2]float64{4, 7}, videoMbps: [2]float64{60, 100}, videoDims: [][2]int{{3840, 2160}, {2704, 1520}}},
	{make: "GoPro", model: "HERO11 Black", kind: kindAction, year: 2022, naming: nameGoPro, gps: true,
		lenses: []lens{{focalMin: 2.92, focalMax: 2.92, apertureWide: 2.5, apertureTele: 2.5, weight: 1, fixedAperture: true}},
		dims:   [][2]int{{5568, 4872}}, stillExt: "JPG", videoExt: "MP4",
		stillMB: [2]float64{5, 9}, videoMbps: [2]float64{80, 120}, videoDims: [][2]int{{3840, 2160}, {5312, 2988}}},
	{make: "DJI", model: "FC7303", kind: kindDrone, year: 2020, naming: nameDJI, gps: true,
		lenses: []lens{{focalMin: 4.49, focalMax: 4.49, apertureWide: 2.8, apertureTele: 2.8, weight: 1, fixedAperture: true}},
		dims:   [][2]int{{4000, 3000}}, stillExt: "JPG", videoExt: "MP4",
		stillMB: [2]float64{5, 9}, videoMbps: [2]float64{60, 100}, videoDims: [][2]int{{3840, 2160}, {2720, 1530}}},
	{make: "DJI", model: "FC3582", kind: kindDrone, year: 2022, naming: nameDJI, gps: true,
		lenses: []lens{{focalMin: 6.72, focalMax: 6.72, apertureWide: 1.7, apertureTele: 1.7, weight: 1, fixedAperture: true}},
		dims:   [][2]int{{4032, 3024}}, stillExt: "JPG", videoExt: "MP4",
		stillMB: [2]float64{6, 11}, videoMbps: [2]float64{100, 150}, videoDims: [][2]int{{3840, 2160}}},
	{make: "Arashi Vision", model: "Insta360 X3", kind: kind360, year: 2022, naming: nameInsta360, gps: true,
		lenses: []lens{{focalMin: 1.39, focalMax: 1.39, apertureWide: 1.9, apertureTele: 1.9, weight: 1, fixedAperture: true}},
		dims:   [][2]int{{5760, 2880}}, stillExt: "insp", videoExt: "insv",
		stillMB: [2]float64{5, 9}, videoMbps: [2]float64{100, 120}, videoDims: [][2]int{{5760, 2880}},
		projection: "EQUIRECTANGULAR"},
}
