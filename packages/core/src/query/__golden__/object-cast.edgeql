select (<User><uuid>$id) { name }
