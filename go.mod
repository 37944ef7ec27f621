module github.com/mediaspec/mediaspec

go 1.26.8

require (
	github.com/HugoSmits86/nativewebp v0.9.3
	github.com/bep/imagemeta v1.0.1
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/brianvoe/gofakeit/v7 v7.18.1
	github.com/coder/websocket v1.8.15
	github.com/cucumber/gherkin/go/v26 v26.2.0
	github.com/cucumber/godog v0.15.1
	github.com/cucumber/messages/go/v21 v21.0.1
	github.com/gen2brain/avif v0.1.3
	github.com/gen2brain/heic v0.1.0
	github.com/gen2brain/jpegxl v0.1.1
	github.com/getkin/kin-openapi v0.152.0
	github.com/jackc/pgx/v5 v5.12.0
	github.com/jacoelho/xsd v0.0.27
	github.com/stretchr/testify v1.12.1
	github.com/tetratelabs/wazero v1.6.0
	go.yaml.in/yaml/v3 v3.0.5
	golang.org/x/crypto v0.59.0
	golang.org/x/image v0.47.0
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.50.0
	golang.org/x/text v0.44.0
)

require (
	github.com/go-openapi/jsonpointer v0.22.5 // indirect
	github.com/go-openapi/swag/jsonname v0.25.5 // indirect
	github.com/gofrs/uuid v4.3.1+incompatible // indirect
	github.com/gorilla/mux v1.8.1 // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-memdb v1.3.4 // indirect
	github.com/hashicorp/golang-lru v0.5.4 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/oasdiff/yaml v0.1.1 // indirect
	github.com/oasdiff/yaml3 v0.0.14 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/spf13/pflag v1.0.7 // indirect
)
