// A probe that dies the way V8's memory cage kills a process.
process.abort();
