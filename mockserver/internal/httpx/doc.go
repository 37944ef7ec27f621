// Package httpx is the mock's HTTP plumbing, below its handlers: the JSON
// error answers and their encoding, ETags and conditional answers, upload
// bodies guarded against slow clients, the memory requests may hold, cookies
// as the reference writes them, content served with Range, the peer of a
// waiting request, the HTTP server and its listener, heap trimming, the
// places of large answers, and the type checks of JSON bodies. It knows
// nothing of the API's routes, records or pictures.
package httpx
