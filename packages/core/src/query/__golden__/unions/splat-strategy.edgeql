select D { ** }
