# mediaspec serve in a container: a static binary (CGO_ENABLED=0) on distroless's static image,
# run as its non-root user. Inside the container the mock listens on every interface
# (--addr 0.0.0.0:2283), so that a published port or another service reaches it.
#   docker build -t mediaspec .
#   docker run --rm -p 127.0.0.1:2283:2283 mediaspec
#   docker run --rm -p 127.0.0.1:2283:2283 mediaspec serve --addr 0.0.0.0:2283 --latency 300ms

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/mediaspec ./cmd/mediaspec

# distroless static: no shell, no libc; it has /tmp (where serve keeps uploads by default)
# and a nonroot user (uid 65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/mediaspec /usr/local/bin/mediaspec
USER nonroot:nonroot
EXPOSE 2283
ENTRYPOINT ["/usr/local/bin/mediaspec"]
CMD ["serve", "--addr", "0.0.0.0:2283"]
