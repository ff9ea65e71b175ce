// A probe that never answers.
setInterval(() => {}, 1000);
