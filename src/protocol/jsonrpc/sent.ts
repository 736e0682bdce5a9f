/**
 * What a transport's send() returns when it took the message at once (a pipe that accepted the line): one shared,
 * already settled promise instead of one per message. The connection recognises it and attaches no failure
 * handler, so a message costs no `.catch` promise and closure; any other promise is watched for a failure.
 */
export const SENT: Promise<void> = Promise.resolve();
