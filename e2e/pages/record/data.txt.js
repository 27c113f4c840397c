window.fromText = 1;
