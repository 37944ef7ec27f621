// Package media is the mock's media folder and what works on it, apart
// from HTTP: the pack files that keep uploads and profile images, the
// cache of encoded pictures, and the disk usage of the folder. The
// handlers that answer with them are the mock's (package mockserver); an
// error here is a plain Go error, which they turn into their answer.
package media
