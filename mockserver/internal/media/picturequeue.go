package media

// Waiting is how many assets wait for their pictures: a library's scan
// queues no more while half the queue is taken, so that uploads always
// find room.
func (j *PictureJobs) Waiting() int { return len(j.queue) }

// Room is how many may wait before a scan holds back.
const Room = pictureQueue / 2
