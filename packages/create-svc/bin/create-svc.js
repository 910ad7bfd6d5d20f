#!/usr/bin/env node
'use strict';
require('../dist/index.js').createSvcFromProcess();
