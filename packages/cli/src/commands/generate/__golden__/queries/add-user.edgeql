insert User { name := <str>$name, roles := {'reader'} };
