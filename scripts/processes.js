/** Processes on this machine, for the scripts and the test harness that clean up after them. */

/** Whether the process `pid` is still running (a signal 0 reaches it; one of another user counts). */
function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

module.exports = { alive };
