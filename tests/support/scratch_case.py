# A TestCase with scratch space: one ci.TempDir per class (named by SCRATCH, removed after the
# class) and a fresh directory per test (self.dir, named after the test method), for tests that
# must see exactly what a command left in a directory (tests/hostile: special outputs, lost work).
import os
import unittest

import crd_integ as ci


class ScratchCase(unittest.TestCase):
    SCRATCH = "crd-test"

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir(cls.SCRATCH)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.dir = self.tmp(self.id().rsplit(".", 1)[-1])
        os.makedirs(self.dir)
