package pictures

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"sync"
	"time"
	_ "unsafe" // for go:linkname

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/emscripten"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	// The decoders of AVIF (libavif and dav1d) and JPEG XL (libjxl),
	// compiled to WebAssembly. Their v0.1 releases, as heic's v0.1.0, are
	// WebAssembly alone: later ones open a system library through purego,
	// which links the binary dynamically (TestBinaryIsStatic). Their Go
	// code is not called (see wasmDecoder); their modules are.
	_ "github.com/gen2brain/avif"
	_ "github.com/gen2brain/jpegxl"
)

// The WebAssembly modules the two packages embed, pinned by go.sum.
//
//go:linkname avifWasm github.com/gen2brain/avif.avifWasm
var avifWasm []byte

//go:linkname jxlWasm github.com/gen2brain/jpegxl.jxlWasm
var jxlWasm []byte

// wasmDecoder runs one of those modules: a fresh instance for each picture,
// so that a file that traps the decoder (a hostile one) leaves nothing
// behind, and the memory a large picture took is given back.
//
// The packages' own Go code keeps one instance for the process, which
// stays broken after a trap, and gives libavif emscripten's 64 KiB stack:
// dav1d overflows it on the upstream's own 8bit-sRGB.avif (an out of
// bounds trap). Here an emscripten module's stack is moved into 8 MiB of
// its heap before it decodes.
type wasmDecoder struct {
	name       string
	wasm       *[]byte
	emscripten bool // needs emscripten's imports, and has its stackRestore

	once     sync.Once
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
	err      error
}

var (
	avifDecoder = &wasmDecoder{name: "avif", wasm: &avifWasm, emscripten: true}
	jxlDecoder  = &wasmDecoder{name: "jpegxl", wasm: &jxlWasm}
)

// wasmStack is the stack given to an emscripten module.
const wasmStack = 8 << 20

// wasmTimeout bounds one decode: a picture decodes in seconds.
const wasmTimeout = 2 * time.Minute

// maxWasmBytes bounds the file handed to a module, which reads it whole.
const maxWasmBytes = 64 << 20

// compile compiles the module once, at its first use: the process does
// not pay for a decoder it never calls.
func (d *wasmDecoder) compile(ctx context.Context) error {
	d.once.Do(func() {
		d.runtime = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(true))
		if d.compiled, d.err = d.runtime.CompileModule(ctx, *d.wasm); d.err != nil {
			return
		}
		if d.emscripten {
			if _, d.err = emscripten.InstantiateForModule(ctx, d.runtime, d.compiled); d.err != nil {
				return
			}
		}
		_, d.err = wasi_snapshot_preview1.Instantiate(ctx, d.runtime)
	})
	if d.err != nil {
		return fmt.Errorf("pictures: the %s decoder: %w", d.name, d.err)
	}
	return nil
}

// decode decodes a file after checking the size it declares against
// maxPixels.
func (d *wasmDecoder) decode(r io.ReadSeeker, maxPixels int) (image.Image, error) {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	if size > maxWasmBytes {
		return nil, fmt.Errorf("%w: a %s file of %d bytes", ErrTooLarge, d.name, size)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wasmTimeout)
	defer cancel()
	if err := d.compile(ctx); err != nil {
		return nil, err
	}
	mod, err := d.runtime.InstantiateModule(ctx, d.compiled, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		return nil, fmt.Errorf("pictures: the %s decoder: %w", d.name, err)
	}
	defer mod.Close(context.Background())
	img, err := d.run(ctx, mod, data, maxPixels)
	if err != nil {
		return nil, fmt.Errorf("pictures: %s: %w", d.name, err)
	}
	return img, nil
}

// errDecode is a module's refusal of a file.
var errDecode = errors.New("the file does not decode")

// run calls the module's decode(in, size, configOnly, &width, &height,
// out) twice: for the size, then, within the bound, for the pixels (RGBA).
func (d *wasmDecoder) run(ctx context.Context, mod api.Module, data []byte, maxPixels int) (image.Image, error) {
	mem := mod.Memory()
	alloc := mod.ExportedFunction("allocate")
	decode := mod.ExportedFunction("decode")
	if alloc == nil || decode == nil || mem == nil {
		return nil, errors.New("the module lacks its exports")
	}
	call := func(f api.Function, args ...uint64) (uint64, error) {
		res, err := f.Call(ctx, args...)
		if err != nil {
			return 0, err
		}
		if len(res) == 0 {
			return 0, errors.New("no result")
		}
		return res[0], nil
	}
	if d.emscripten {
		restore := mod.ExportedFunction("stackRestore")
		if restore == nil {
			return nil, errors.New("the module lacks stackRestore")
		}
		stack, err := call(alloc, wasmStack)
		if err != nil || stack == 0 {
			return nil, fmt.Errorf("a stack: %w", err)
		}
		if _, err := restore.Call(ctx, (stack+wasmStack)&^15); err != nil {
			return nil, err
		}
	}
	in, err := call(alloc, uint64(len(data)))
	if err != nil || in == 0 || !mem.Write(uint32(in), data) {
		return nil, fmt.Errorf("copying the file in: %w", err)
	}
	dims, err := call(alloc, 8)
	if err != nil || dims == 0 {
		return nil, fmt.Errorf("allocating: %w", err)
	}
	if ok, err := call(decode, in, uint64(len(data)), 1, dims, dims+4, 0); err != nil {
		return nil, err
	} else if ok == 0 {
		return nil, errDecode
	}
	w, okW := mem.ReadUint32Le(uint32(dims))
	h, okH := mem.ReadUint32Le(uint32(dims + 4))
	if !okW || !okH || w < 1 || h < 1 || uint64(w)*uint64(h) > uint64(maxPixels) {
		return nil, fmt.Errorf("%w: %d×%d", ErrTooLarge, w, h)
	}
	n := uint64(w) * uint64(h) * 4
	out, err := call(alloc, n)
	if err != nil || out == 0 {
		return nil, fmt.Errorf("allocating the picture: %w", err)
	}
	if ok, err := call(decode, in, uint64(len(data)), 0, dims, dims+4, out); err != nil {
		return nil, err
	} else if ok == 0 {
		return nil, errDecode
	}
	pix, ok := mem.Read(uint32(out), uint32(n))
	if !ok {
		return nil, errors.New("reading the picture out")
	}
	img := image.NewNRGBA(image.Rect(0, 0, int(w), int(h)))
	copy(img.Pix, pix) // out of the module's memory, which is closed
	return img, nil
}
