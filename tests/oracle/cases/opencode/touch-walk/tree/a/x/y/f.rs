fn f() {}
