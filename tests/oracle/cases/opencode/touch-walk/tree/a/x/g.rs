fn g() {}
