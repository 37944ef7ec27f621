// Package media is the mock's media folder and what works on it, apart
// from HTTP: the pack files that keep uploads and profile images, the
// cache of encoded pictures, the disk usage of the folder, the workers
// that make the pictures of uploads (the making itself, which reads and
// writes the server's state, is the server's), and the profile images'
// storage, in the folder or in memory. The handlers that answer with them
// are the mock's (package mockserver); an error here is a plain Go error,
// which they turn into their answer.
package media
